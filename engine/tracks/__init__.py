"""engine/tracks"""
