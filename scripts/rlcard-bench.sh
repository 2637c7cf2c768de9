#!/usr/bin/env bash
# RLCard's gin-rummy random play in steps/s, the yardstick of `sahra bench rummy`'s random
# play. RLCard is NOT a project dependency: it lives in its own venv, made by `setup`.
#
#   scripts/rlcard-bench.sh setup            # make the venv and pip install rlcard there
#   scripts/rlcard-bench.sh [GAMES] [SEED]   # time GAMES whole games (default 200, seed 1)
#   taskset -c 1 scripts/rlcard-bench.sh     # on one core, as the bench runs it
#
# The venv is $SAHRA_RLCARD_VENV (default /tmp/rlcard-venv), made with $SAHRA_RLCARD_PYTHON
# (default python3). A step is one env.step of RLCard's own RandomAgent's choice among the
# legal actions, the state's encoding included (what RLCard's random play costs), from
# env.reset to env.is_over. Prints one JSON line; exit 3 when the venv is not there.
set -euo pipefail
venv="${SAHRA_RLCARD_VENV:-/tmp/rlcard-venv}"
if [[ "${1:-}" == "setup" ]]; then
  "${SAHRA_RLCARD_PYTHON:-python3}" -m venv "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip
  "$venv/bin/pip" install --quiet "rlcard==1.2.0"
  "$venv/bin/python" -c "import rlcard; print('rlcard', rlcard.__version__, 'in $venv')"
  exit 0
fi
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import rlcard" 2>/dev/null; then
  echo "no RLCard venv at $venv: make it with '$0 setup'" >&2
  exit 3
fi
games="${1:-200}"
seed="${2:-1}"
"$venv/bin/python" - "$games" "$seed" <<'PY'
import json
import sys
import time

import numpy as np
import rlcard
from rlcard.agents import RandomAgent

games, seed = int(sys.argv[1]), int(sys.argv[2])
np.random.seed(seed)
env = rlcard.make("gin-rummy", config={"seed": seed})
agent = RandomAgent(num_actions=env.num_actions)
steps = 0
t0, c0 = time.perf_counter(), time.process_time()
for _ in range(games):
    state, _player = env.reset()
    while not env.is_over():
        state, _player = env.step(agent.step(state))
        steps += 1
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(
    json.dumps(
        {
            "engine": f"rlcard {rlcard.__version__}",
            "game": "gin-rummy",
            "games": games,
            "steps": steps,
            "steps_per_game": round(steps / games, 1),
            "steps_per_s": round(steps / wall),
            "cpu_steps_per_s": round(steps / cpu),
            "seconds": round(wall, 2),
        }
    )
)
PY
