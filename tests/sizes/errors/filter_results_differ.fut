-- Two applications of a function with an existential result size give
-- two different unknown sizes.
-- ==
-- error: Sizes "\?[0-9]+" and "\?[0-9]+" do not match.*result of "pos".*result of "pos"

def pos (xs: []i32) = filter (> 0) xs

def main (xs: []i32) = zip (pos xs) (pos xs)
