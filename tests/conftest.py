import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))
