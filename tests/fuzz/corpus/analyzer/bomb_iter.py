import itertools
p = list(itertools.product(range(10**4), range(10**4), range(10**3)))
q = list(range(10**12))
r = sorted(range(10**12))
x = [[i * j for i in range(10**5)] for j in range(10**5)]
d = {i: i for i in range(10**9)}
s = sum(i for i in range(3 * 10**7))
n = next(i for i in itertools.count() if i > 5)
f = '{:>1000000000000}'.format(1)
g = f'{1:>1000000000000}'
h = '%1000000000000d' % 1
