#!/usr/bin/env bash
# What sealing hidden cards at rest costs per event (issue 10 item 3): encode and decode of a
# CardsDealt and a CardDrawn through the codec, with timeit. Run from a checkout; the codec
# module is an argument so that an older checkout can be measured side by side:
#   scripts/seal-cost.sh                                   # this checkout
#   (cd /tmp/old && PYTHONPATH=. /work/main/scripts/seal-cost.sh services.gateway.codec)
set -euo pipefail
codec="${1:-services.tables.codec}"
python="${SAHRA_PYTHON:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.venv/bin/python}"
setup="import os; os.environ['SAHRA_SEED_KEY'] = '5e' * 32
from datetime import UTC, datetime
from $codec import encode_event, decode_event
from engine.banakil.messages import CardsDealt, CardDrawn
from services.store.port import StoredEvent, Metadata
from tests.unit.test_verify_tamper import example, events_of
events = events_of(example('sahrat-secret-deal'))
dealt = next(e for e in events if isinstance(e, CardsDealt))
drawn = next(e for e in events if isinstance(e, CardDrawn))
def row(e):
    new = encode_event(e, 't-1')
    return StoredEvent(position=1, stream_id='t-1', version=1, type=new.type, data=new.data,
                       metadata=Metadata(command_id='c'), recorded_at=datetime.now(UTC))
dealt_row, drawn_row = row(dealt), row(drawn)"
for what in "encode_event(dealt, 't-1')" "decode_event(dealt_row)" \
            "encode_event(drawn, 't-1')" "decode_event(drawn_row)"; do
  printf '%-30s ' "$what"
  "$python" -m timeit -r 7 -s "$setup" "$what" | sed 's/.*: //'
done
