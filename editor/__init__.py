"""slipstream.editor"""
