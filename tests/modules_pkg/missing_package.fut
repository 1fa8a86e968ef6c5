-- Importing a file of a package that is not installed under lib/ is an
-- error at the import that says how to install it.
-- ==
-- error: (?s)cannot import 'lib/github.com/parad-tests/absent/absent'.*package 'github.com/parad-tests/absent' is not installed.*futhark pkg sync

import "lib/github.com/parad-tests/absent/absent"

def main (x: i32) : i32 = x
