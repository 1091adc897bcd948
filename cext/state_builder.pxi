# How each engine module builds its `State` objects: only through _blank_state, so that Python code cannot make a
# State whose C struct was never filled. Included after the module's `State` and `Rules` classes.

cdef bint _building = False               # only this module can build a State


cdef inline State _blank_state(Rules rules):
    """A State to be filled at once by the caller (a struct copy, start() or a checked load)."""
    global _building
    cdef State st
    _building = True
    try:
        st = State.__new__(State)
    finally:
        _building = False
    st.rules = rules
    return st
