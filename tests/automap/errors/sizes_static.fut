-- The elaborated program's sizes are checked as usual: `map2` of arrays
-- of known, different sizes.
-- ==
-- error: Sizes "3" and "2" do not match

def main = [1, 2, 3] + [4, 5]
