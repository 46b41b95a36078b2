"""engine/play"""
