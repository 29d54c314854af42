#!/usr/bin/env python3
"""Reference pilot: alpha-beta state filter, disturbance estimate, cascaded velocity control."""
import json, math, sys


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def main():
    p = None
    est = None
    dist = 0.0
    last_cmd = (0.0, 0.0)
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "init":
            p = m
            continue
        if m["type"] == "end":
            break
        dt, g, A = p["dt"], p["gravity"], p["max_accel"]
        if est is None:
            if any(m[k] is None for k in ("x", "y", "vx", "vy")):
                # No full fix yet: hover-ish until every sensor has reported once.
                sys.stdout.write(json.dumps({"thrust": round(g / A, 4), "angle": 0.0}) + "\n")
                sys.stdout.flush()
                continue
            est = dict(x=m["x"], y=m["y"], vx=m["vx"], vy=m["vy"])
        else:
            # Predict with the last command and the disturbance estimate, then correct.
            ax_pred = last_cmd[0] + dist
            pvx = est["vx"] + ax_pred * dt
            pvy = est["vy"] + last_cmd[1] * dt
            px = est["x"] + pvx * dt
            py = est["y"] + pvy * dt
            kv, kp = 0.25, 0.2
            # A dropped sensor (null) means no correction for that component this step.
            innov_vx = 0.0 if m["vx"] is None else m["vx"] - pvx
            est["vx"] = pvx + kv * innov_vx
            est["vy"] = pvy + (0.0 if m["vy"] is None else kv * (m["vy"] - pvy))
            est["x"] = px + (0.0 if m["x"] is None else kp * (m["x"] - px))
            est["y"] = py + (0.0 if m["y"] is None else kp * (m["y"] - py))
            dist += 0.08 * innov_vx / dt * 0.25
            dist = clamp(dist, -2.0, 2.0)
        x, y, vx, vy = est["x"], est["y"], est["vx"], est["vy"]
        ex = p["pad_x"] - x
        over_pad = abs(ex) < p["pad_half_width"] * 0.5
        vx_des = clamp(0.35 * ex, -10.0, 10.0)
        ax = clamp(1.2 * (vx_des - vx) - dist, -A * 0.45, A * 0.45)
        if y > 12 or over_pad:
            vy_des = -clamp(0.25 * y + 0.6, 0.9, 9.0)
        else:
            vy_des = clamp(0.3 * (8 - y), -2, 2)
        ay = g + 1.5 * (vy_des - vy)
        if y < 3 and over_pad:
            ay = g + 2.5 * (-0.9 - vy)
        ay = max(ay, 0.0)
        ang = clamp(math.atan2(ax, ay) if ay > 0 or ax else 0.0, -p["max_angle"], p["max_angle"])
        thrust = clamp(math.hypot(ax, ay) / A, 0.0, 1.0) if ay > 0 else 0.0
        if ay > 0:
            thrust = ay / (A * math.cos(ang))
            if abs(ang) >= p["max_angle"] - 1e-9 and y > 3:
                # Tilt saturated: buy the lateral acceleration with extra thrust (a slight climb).
                thrust = max(thrust, min(abs(ax), 0.6 * A) / (A * math.sin(p["max_angle"])))
            thrust = clamp(thrust, 0.0, 1.0)
        last_cmd = (thrust * A * math.sin(ang), thrust * A * math.cos(ang) - g)
        sys.stdout.write(json.dumps({"thrust": round(thrust, 4), "angle": round(ang, 4)}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
