-- An anonymous size in the function type of an abbreviation is not the
-- size of any array that its values hold.
-- ==
-- error: Type abbreviation contains an anonymous size not used constructively

type^ pred = []f64 -> bool

def main (x: f64) : f64 = x
