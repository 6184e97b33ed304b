s = 'x' * 1000
while True:
    s = s + s
l = [1]
while True:
    l.extend(l)
    l += l
j = 'ab'
while True:
    j = j.join([j, j, j])
