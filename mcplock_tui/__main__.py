import sys

from mcplock_tui.cli.entry import main

sys.exit(main())
