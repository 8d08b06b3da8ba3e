"""hisss: Hisss, the colour-matching snake card game.

The rules core lives in :mod:`hisss.core`; its main names are re-exported here.
"""

from hisss.core import *  # noqa: F403
from hisss.core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
