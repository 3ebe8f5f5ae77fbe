#!/usr/bin/env python3
"""Fills EMPTY "expected" objects of golden cases from the last GoldenFilesTest report (review the diff before committing)."""
import glob, json, re, sys, os
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
report = open(glob.glob(root + '/target/surefire-reports/*GoldenFilesTest.txt')[0]).read()
actual = {}
for m in re.finditer(r"case '(.*?)' \(.*?\n(?:.*\n)*?  actual as JSON: (\{.*\})", report):
    actual[m.group(1)] = json.loads(m.group(2))
for path in sys.argv[1:] or glob.glob(root + '/src/test/resources/cases/*.json'):
    cases = json.load(open(path))
    changed = False
    for c in cases:
        if c.get('expected') == {} and c['name'] in actual:
            c['expected'] = actual[c['name']]
            changed = True
    if changed:
        with open(path, 'w') as f:
            json.dump(cases, f, indent=2, ensure_ascii=False)
            f.write('\n')
        print('filled', path)
