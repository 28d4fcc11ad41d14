import sys
print("calendar", sys.argv[1:])
