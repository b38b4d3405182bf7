"""The Lark grammars of nardy_analysis (installed as package data)."""
