import sys

from buttonup.cli.main import main

sys.exit(main())
