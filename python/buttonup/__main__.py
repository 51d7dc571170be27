import sys

from buttonup.cli.main import main

if __name__ == "__main__":  # not when a worker process of a tournament imports it
    sys.exit(main())
