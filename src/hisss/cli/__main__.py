"""``python -m hisss.cli``: the same as the ``hisss`` console script."""

from hisss.cli.app import main

if __name__ == "__main__":
    main()
