-- The ADBench LSTM objective (a stack of l LSTM layers predicting the
-- next character of a sequence of b-bit characters; the data README,
-- section 3.4, gives the definition) and its gradient w.r.t. the
-- parameters by vjp. The same code as tests/realistic/lstm.fut.
--
-- main [2l][4b]: row 2i holds layer i's weights, row 2i+1 its biases, each
-- as four blocks of b (forget, ingate, outgate, change). extra [3][b]:
-- input weights, output weights, output biases. state [2l][b]: hidden and
-- cell of each layer. seq [c][b]: the characters.
--
-- The datasets are made by `benchmarks/tools/prepare.py` into
-- benchmarks/data/ (git-ignored); `benchmarks/run.sh` does that first.
-- ==
-- entry: objective
-- input @ ../data/lstm_l2_c1024.in output @ ../data/lstm_l2_c1024.F
-- entry: gradient
-- input @ ../data/lstm_l2_c1024.in output @ ../data/lstm_l2_c1024.J

def sigmoid (x: f64) : f64 = 1 / (1 + f64.exp (-x))

def block [w] (b: i64) (row: [w]f64) (j: i64) : [b]f64 = tabulate b (\i -> row[j * b + i])

-- One layer: the new hidden state and cell.
def layer [w] [b] (wts: [w]f64) (bias: [w]f64) (x: [b]f64) (h: [b]f64) (cell: [b]f64)
                  : (*[b]f64, *[b]f64) =
  let gate j v f = map3 (\vi wi bi -> f (vi * wi + bi)) v (block b wts j) (block b bias j)
  let forget = gate 0 x sigmoid
  let ingate = gate 1 h sigmoid
  let outgate = gate 2 x sigmoid
  let change = gate 3 h f64.tanh
  let cell' = map4 (\c f i g -> c * f + i * g) cell forget ingate change
  let h' = map2 (\o c -> o * f64.tanh c) outgate cell'
  in (h', cell')

-- All layers, in place on the state; returns the new state and the output
-- of the last layer.
def predict [l2] [w] [b] (main: [l2][w]f64) (state: *[l2][b]f64) (x: [b]f64)
                         : (*[l2][b]f64, [b]f64) =
  loop (state, x) = (state, x) for i < l2 / 2 do
    let (h, c) = layer main[2 * i] main[2 * i + 1] x state[2 * i] state[2 * i + 1]
    let state[2 * i] = h
    let state[2 * i + 1] = c
    in (state, h)

def loss [l2] [w] [b] [c] (main: [l2][w]f64) (extra: [3][b]f64) (state0: [l2][b]f64)
                          (seq: [c][b]f64) : f64 =
  let (_, total) =
    loop (state, total) = (copy state0, 0) for t < c - 1 do
      let x = map2 (*) seq[t] extra[0]
      let (state, h) = predict main state x
      let y = map3 (\hi wi bi -> hi * wi + bi) h extra[1] extra[2]
      let lse = f64.log (f64.sum (map f64.exp y) + 2)
      in (state, total + f64.sum (map2 (\s yi -> s * (yi - lse)) seq[t + 1] y))
  in -total / f64.i64 ((c - 1) * b)

entry objective [l2] [w] [b] [c] (main: [l2][w]f64) (extra: [3][b]f64) (state: [l2][b]f64)
                                 (seq: [c][b]f64) : f64 =
  loss main extra state seq

-- The gradient flattened as ADBench's J: main row-major, then extra.
entry gradient [l2] [w] [b] [c] (main: [l2][w]f64) (extra: [3][b]f64) (state: [l2][b]f64)
                                (seq: [c][b]f64) : []f64 =
  let (gm, ge) = vjp (\(m, e) -> loss m e state seq) (main, extra) 1
  in flatten gm ++ flatten ge
