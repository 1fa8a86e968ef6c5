-- Values of a `type~` abbreviation may differ in size, so they cannot be
-- the elements of an array type.
-- ==
-- error: Cannot create array with elements of size-lifted type "row"

type~ row = []u8
type table = [2]row

def main (x: u8) : u8 = x
