"""The client's tests: `python3 -m unittest` in clients/python, or
`python3 -m unittest test_client test_engine test_examples` in this folder
(which tests the installed package). UCKERS names the binary to run."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
