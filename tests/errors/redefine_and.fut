-- `&&` short-circuits and cannot be redefined.
-- ==
-- error: '&&' is a built-in operator and cannot be redefined

def (&&) (x: bool) (y: bool) = x

def main (x: bool) = x && x
