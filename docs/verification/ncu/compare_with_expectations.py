import json, re, os, collections
D='/work/main/kernels/examples'
meas=json.load(open('/tmp/examples-work/meas.json'))
by=collections.defaultdict(list)
for r in meas:
    op = 'atomic' if (r['op'] in ('-','atomic') or re.match(r'(RED|ATOM)', r['sass'])) else r['op']
    line = r['line']
    if r['file']=='device_atomic_functions.hpp':
        line = {'countPerElement(int *, int)':27, 'countPerLaneClass(int *, int)':32}[r['kern']]
    by[(r['ex'], line, r['space'], op)].append(r)
used=set()
out=[]
for l in open('/tmp/examples-work/figs.out'):
    f, needle, exp, tot = l.rstrip('\n').split('|')
    occ=1; m=re.match(r'(.*)#(\d+)$', needle)
    if m: needle, occ = m.group(1), int(m.group(2))
    lines=open(os.path.join(D,f)).read().split('\n')
    k=[i for i,x in enumerate(lines) if needle in x and '// expect:' in x][occ-1]+1
    ex=f[:-3]
    pred=collections.defaultdict(lambda:[0,0,0])
    for t in tot.split(';'):
        if not t: continue
        sp,kind,a,i,rq=t.split(); p=pred[(sp,kind)]; p[0]+=int(a); p[1]+=int(i); p[2]+=int(rq)
    for (sp,kind),(a,i,rq) in pred.items():
        ins=by.get((ex,k,sp,kind),[]); used.add((ex,k,sp,kind))
        ma=sum(x['sec' if sp=='global' else 'wf'] for x in ins); mi=sum(x['secI' if sp=='global' else 'wfI'] for x in ins)
        me=sum(x['exe'] for x in ins)
        ok = abs(ma-a)<0.5 and abs(mi-i)<0.5
        rat_ok = mi>0 and abs(ma/mi - a/i) < 0.006
        tag = 'OK ' if ok else ('RATIO' if rat_ok else 'DIFF')
        print(f'{tag} {f}:{k} {sp} {kind}: pred {a}/{i} over {rq} req = {a/rq:.3f}/{i/rq:.3f} | meas {ma:.0f}/{mi:.0f} over {me:.0f} exec ({len(ins)} instr)' + ('' if ok else '  ' + ' '.join(x['sass'].split()[0] for x in ins)))
for key,ins in by.items():
    if key not in used: print('UNPREDICTED', key, [ (x['sass'].split()[0], x['sec'], x['wf'], x['exe']) for x in ins])
