def position_id(p):
    return "?"
