ATTACH DATABASE 'other.sqlite' AS other;
-- expect: error 1:1 ATTACH cannot run inside a transaction, and every migration runs in on
