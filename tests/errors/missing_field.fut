-- Accessing a field that a record does not have is a type error.
-- ==
-- error: [Ff]ield|[Tt]ype|[Uu]nknown|[Nn]o such|[Hh]as no

def main (a: i32) : i32 =
  let r = {x = a, y = a + 1}
  in r.z
