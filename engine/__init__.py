"""slipstream.engine"""

from slipstream.engine.core import accel as _accel

# a compiled build of a few hot modules, used only if built from exactly these sources
_accel.install()
