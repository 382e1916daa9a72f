DETACH other;
-- expect: error 1:1 DETACH cannot run inside a transaction, and every migration runs in on
