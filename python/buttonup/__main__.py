import sys

from buttonup.cli import main

sys.exit(main())
