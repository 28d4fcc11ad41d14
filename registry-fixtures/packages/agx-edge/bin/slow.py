import json, os, sys, time

args = json.load(sys.stdin)
if args.get("__test__"):  # self-test (agx validate --probe)
    print(json.dumps({"ok": True}))
    sys.exit(0)
if args.get("pid_file"):
    with open(args["pid_file"], "w") as f:
        f.write(str(os.getpid()))
time.sleep(float(args["seconds"]))
print(json.dumps({"slept": args["seconds"]}))
