import sys

from mcplock_tui.cli.main import main

sys.exit(main())
