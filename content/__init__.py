"""slipstream.content"""
