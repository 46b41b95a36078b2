"""The track editor: the canvas, its tools and docks, exports, printing and recovery files."""
