#!/usr/bin/env bash
# Mutation testing of engine/ with mutmut 3 (docs/testing.md); not part of `./sahra test`.
#
#   scripts/mutate.sh                                  every module of engine/ (slow)
#   scripts/mutate.sh engine.banakil.melds engine.fair  only these modules
#
# mutmut writes a mutated copy of the tree into mutants/; this runs it in a scratch copy
# (.sahra/mutate, or SAHRA_MUTATE_DIR) so the working tree never holds mutants. The tests
# run against each mutant are pyproject.toml's [tool.mutmut] selection; the property test
# of the meld oracle runs SAHRA_ORACLE_EXAMPLES (default 200) examples per mutant.
# SAHRA_MUTATE_JOBS sets the parallel workers (default 2). Ends with the score per module.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
work="${SAHRA_MUTATE_DIR:-$root/.sahra/mutate}"
mkdir -p "$work"
# --delete keeps the copy equal to the tree; mutmut's own results (mutants/) stay, and
# mutmut re-tests only what changed.
rsync -a --delete --exclude mutants/ --exclude __pycache__/ --exclude .hypothesis/ \
  --include '/engine/***' --include '/services/***' --include '/tests/***' \
  --include '/docs/***' --include '/examples/***' --include '/pyproject.toml' --exclude '*' "$root/" "$work/"
cd "$work"
export SAHRA_ORACLE_EXAMPLES="${SAHRA_ORACLE_EXAMPLES:-200}"
patterns=()
for module in "$@"; do
  patterns+=("${module}.*")
done
"$venv/bin/mutmut" run --max-children "${SAHRA_MUTATE_JOBS:-2}" "${patterns[@]}" || true
"$venv/bin/python" "$root/scripts/mutation_score.py" "$work/mutants" "$@"
