#!/usr/bin/env python3
"""CLI: python3 propagate.py INPUT.json OUTPUT.json"""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kepler

doc = json.load(open(sys.argv[1]))
json.dump(kepler.solve(doc), open(sys.argv[2], "w"))
