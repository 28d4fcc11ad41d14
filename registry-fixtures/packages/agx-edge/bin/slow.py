import json, os, sys, time

args = json.load(sys.stdin)
if args.get("pid_file"):
    with open(args["pid_file"], "w") as f:
        f.write(str(os.getpid()))
time.sleep(float(args["seconds"]))
print(json.dumps({"slept": args["seconds"]}))
