"""slipstream.schemas"""
