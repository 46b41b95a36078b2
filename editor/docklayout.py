"""A workaround for Qt's dock layout: tabifying docks in a second dock area before the window
is first laid out leaves one extra tab bar per group (Qt 6.11 does it, a plain QMainWindow
shows it), which Qt no longer tracks: it is drawn behind the central widget in the first
frames and in screenshots, until Qt deletes it once the event loop runs.

Qt shows the tab bars its layout uses every time it applies the layout, and never touches
the one it lost; so hiding every tab bar of the window once, after the docks are arranged,
leaves exactly the stray bar hidden.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow, QTabBar


def hide_stray_tab_bars(window: QMainWindow) -> None:
    """Call at the end of building a window with tabified docks, before it is shown."""
    for bar in window.findChildren(QTabBar):
        if bar.parent() is window:  # the dock tab bars; tab widgets inside docks keep theirs
            bar.hide()
