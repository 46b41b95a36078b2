"""engine/editing"""
