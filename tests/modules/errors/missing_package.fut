-- A package that is not installed is named as such.
-- ==
-- error: the package 'github.com/parad-tests/absent' is not installed

import "lib/github.com/parad-tests/absent/absent"
