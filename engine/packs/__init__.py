"""engine/packs"""
