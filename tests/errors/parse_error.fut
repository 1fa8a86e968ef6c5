-- An unbalanced parenthesis is a syntax error.
-- ==
-- error: [Pp]arse|[Ss]yntax|[Uu]nexpected|[Ee]xpected|[Uu]nclosed|[Uu]nmatched

def main (x: i32) : i32 = (x + 1 * (2 - x)
