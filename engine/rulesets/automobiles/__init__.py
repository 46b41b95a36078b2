"""engine/rulesets/automobiles"""
