"""`python -m services.cli …`: the same as `sahra …`."""

import sys

from services.cli.main import main

sys.exit(main())
