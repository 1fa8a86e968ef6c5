-- A module name must be defined.
-- ==
-- error: Unknown module 'nowhere'

module m = nowhere
