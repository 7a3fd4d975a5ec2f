import csv, glob, os, collections, re, json
rows=[]  # (example, kernel, file, line, addr, sass, space, op, exec, sec, secI, wf, wfI)
for p in sorted(glob.glob('/tmp/examples-work/m/csv/*.csv')):
    ex=os.path.basename(p)[:-4]
    fpath=None; line=None; hdr=None; kern=None
    for row in csv.reader(open(p)):
        if not row: continue
        if row[0]=='File Path': fpath=row[1]; continue
        if row[0]=='Function Name': kern=row[1]; continue
        if row[0]=='Line No': hdr=row; continue
        if hdr is None: continue
        if row[0]!='': line=int(row[0]); continue
        if row[2] in ('...',''): continue
        sp=row[hdr.index('Address Space')]
        if sp in ('-',''): continue
        op=row[hdr.index('Access Operation')] if 'Access Operation' in hdr else ('Atomic' if re.search(r'\b(RED|ATOM)', row[3]) else '?')
        g=lambda name: float(row[hdr.index(name)] or 0) if name in hdr else 0.0
        rows.append(dict(ex=ex, kern=kern, file=os.path.basename(fpath), line=line, addr=row[2], sass=row[3].strip(), space=sp.lower(), op=op.lower(),
             exe=g('Instructions Executed'), sec=g('L2 Theoretical Sectors Global'), secI=g('L2 Theoretical Sectors Global Ideal'),
             wf=g('L1 Wavefronts Shared'), wfI=g('L1 Wavefronts Shared Ideal'), thr=g('Predicated-On Thread Instructions Executed')))
# dedupe (ex, kern, addr): prefer example-file attribution
best={}
for r in rows:
    k=(r['ex'], r['kern'], r['addr'])
    if k not in best or (not best[k]['file'].endswith('.cu') and r['file'].endswith('.cu')): best[k]=r
json.dump(list(best.values()), open('/tmp/examples-work/meas.json','w'), indent=0)
print(len(rows), len(best))
for r in best.values():
    if not r['file'].endswith('.cu') or r['file'][:-3]!=r['ex']: print('ELSEWHERE', r['ex'], r['kern'][:40], r['file'], r['line'], r['sass'], r['space'], r['op'])
