-- A parameter's size cannot be one that only the body makes: callers
-- could not know it (the size of `xs` would be the value `xs[0]`).
-- ==
-- error: A size made inside the function's body "\?[0-9]+" would be in the type of parameter "xs"

def main xs = zip xs (iota xs[0])
