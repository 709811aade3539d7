import uuid, os
from bench.model_loop.replay import play_turn
from tests.model_loop.conftest import RECORDED

async def test_dbg(nodes):
    conv = RECORDED[os.environ["CONV"]]
    style = os.environ["STYLE"]
    uid = f"dbg-{uuid.uuid4().hex[:6]}"
    for turn in conv["turns"]:
        a = turn["answers"][style]
        r, one, w = await play_turn(nodes["retrieve"], nodes["memory"], conv, turn, uid, a["raw"], a.get("handles"))
        print("TURN", turn["i"], r.next, r.detail, "\n   USER:", turn["user"][:300], "\n   RAW:", a["raw"][:700], "\n   WARN:", "\n     ".join(r.warnings))
