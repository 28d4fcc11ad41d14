"""The content of `test://template/{id}/data`: the template variables arrive as JSON on stdin."""
import json
import sys

variables = json.load(sys.stdin)
print(json.dumps({"id": variables["id"], "templateTest": True, "data": f"Data for ID: {variables['id']}"}))
