"""engine/rulesets"""
