import json, os, sys, time

args = json.load(sys.stdin)
if args.get("__test__"):  # self-test (agx validate --probe)
    print(json.dumps({"ok": True}))
    sys.exit(0)
here = os.path.join(args["dir"], str(os.getpid()))
open(here, "w").close()
deadline = time.monotonic() + 20
while len(os.listdir(args["dir"])) < args["count"] and time.monotonic() < deadline:
    time.sleep(0.01)
print(json.dumps({"met": len(os.listdir(args["dir"])) >= args["count"]}))
