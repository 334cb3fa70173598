package org.dsmscope.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An S3-compatible server on 127.0.0.1 for tests, path-style, that serves the files under a folder as the objects
 * of one bucket ({@code FOLDER/BUCKET/KEY}), read-only: the requests Hadoop's S3A connector makes to read a trace
 * set (HEAD and ranged GET of an object, ListObjectsV2 with prefix and delimiter, HEAD of the bucket). A request
 * signed with another access key than the server's gets S3's {@code 403 InvalidAccessKeyId}; signatures are not
 * checked.
 */
final class FolderS3Server implements AutoCloseable {
    /** The access key that the server accepts. */
    static final String ACCESS_KEY = "dsmscope-test";
    /** A secret key to sign with (not checked). */
    static final String SECRET_KEY = "dsmscope-test-secret";
    private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/]+)/");
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private final Path root;
    private final HttpServer http;

    /** Starts a server on a free port of 127.0.0.1 that serves folder {@code root}. */
    FolderS3Server(Path root) throws IOException {
        this.root = root;
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        http.createContext("/", this::handle);
        http.setExecutor(Executors.newFixedThreadPool(4));
        http.start();
    }

    /** {@code http://127.0.0.1:PORT}. */
    String endpoint() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            Matcher m = auth == null ? null : CREDENTIAL.matcher(auth);
            if (m == null || !m.find() || !m.group(1).equals(ACCESS_KEY)) {
                error(ex, 403, "InvalidAccessKeyId",
                        "The AWS Access Key Id you provided does not exist in our records.");
                return;
            }
            String path = URLDecoder.decode(ex.getRequestURI().getRawPath(), StandardCharsets.UTF_8);
            int slash = path.indexOf('/', 1);
            String bucket = slash < 0 ? path.substring(1) : path.substring(1, slash);
            String key = slash < 0 ? "" : path.substring(slash + 1);
            Path dir = root.resolve(bucket);
            if (bucket.isEmpty() || !Files.isDirectory(dir)) {
                error(ex, 404, "NoSuchBucket", "The specified bucket does not exist");
                return;
            }
            String method = ex.getRequestMethod();
            if (key.isEmpty() && method.equals("GET")) {
                list(ex, bucket, dir, query(ex.getRequestURI().getRawQuery()));
            } else if (key.isEmpty() && method.equals("HEAD")) {
                ex.sendResponseHeaders(200, -1);
            } else if (method.equals("GET") || method.equals("HEAD")) {
                object(ex, dir.resolve(key), key, method.equals("HEAD"));
            } else {
                error(ex, 501, "NotImplemented", "A header you provided implies functionality that is not implemented");
            }
        }
    }

    /** HEAD or GET (with {@code Range: bytes=A-B}) of the object {@code key}, file {@code f}. */
    private static void object(HttpExchange ex, Path f, String key, boolean head) throws IOException {
        if (key.endsWith("/") || !Files.isRegularFile(f)) {
            if (head) {
                ex.sendResponseHeaders(404, -1);
            } else {
                error(ex, 404, "NoSuchKey", "The specified key does not exist.");
            }
            return;
        }
        long size = Files.size(f);
        var h = ex.getResponseHeaders();
        h.set("ETag", etag(f));
        h.set("Last-Modified", DateTimeFormatter.RFC_1123_DATE_TIME.format(
                Files.getLastModifiedTime(f).toInstant().atZone(ZoneOffset.UTC)));
        h.set("Content-Type", "application/octet-stream");
        h.set("Accept-Ranges", "bytes");
        if (head) {
            h.set("Content-Length", Long.toString(size));
            ex.sendResponseHeaders(200, -1);
            return;
        }
        long from = 0;
        long to = size - 1;
        String range = ex.getRequestHeaders().getFirst("Range");
        int status = 200;
        if (range != null && range.startsWith("bytes=")) {
            String[] ab = range.substring(6).split("-", 2);
            from = Long.parseLong(ab[0]);
            if (ab.length > 1 && !ab[1].isEmpty()) {
                to = Math.min(to, Long.parseLong(ab[1]));
            }
            if (from >= size) {
                h.set("Content-Range", "bytes */" + size);
                error(ex, 416, "InvalidRange", "The requested range is not satisfiable");
                return;
            }
            h.set("Content-Range", "bytes " + from + "-" + to + "/" + size);
            status = 206;
        }
        long n = to - from + 1;
        ex.sendResponseHeaders(status, n == 0 ? -1 : n);
        if (n == 0) {
            return;
        }
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r"); OutputStream out = ex.getResponseBody()) {
            raf.seek(from);
            byte[] buf = new byte[64 << 10];
            while (n > 0) {
                int r = raf.read(buf, 0, (int) Math.min(buf.length, n));
                if (r < 0) {
                    break;
                }
                out.write(buf, 0, r);
                n -= r;
            }
        }
    }

    /** ListObjectsV2 of bucket folder {@code dir}: the keys under {@code prefix}, rolled up at {@code delimiter}. */
    private static void list(HttpExchange ex, String bucket, Path dir, Map<String, String> q) throws IOException {
        String prefix = q.getOrDefault("prefix", "");
        String delimiter = q.get("delimiter");
        TreeMap<String, Path> objects = new TreeMap<>();
        TreeSet<String> prefixes = new TreeSet<>();
        List<Path> files;
        try (var walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path f : files) {
            String key = dir.relativize(f).toString().replace('\\', '/');
            if (!key.startsWith(prefix)) {
                continue;
            }
            int d = delimiter == null || delimiter.isEmpty() ? -1 : key.indexOf(delimiter, prefix.length());
            if (d >= 0) {
                prefixes.add(key.substring(0, d + delimiter.length()));
            } else {
                objects.put(key, f);
            }
        }
        StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
        x.append("<Name>").append(xml(bucket)).append("</Name><Prefix>").append(xml(prefix)).append("</Prefix>");
        if (delimiter != null) {
            x.append("<Delimiter>").append(xml(delimiter)).append("</Delimiter>");
        }
        x.append("<KeyCount>").append(objects.size() + prefixes.size()).append("</KeyCount><MaxKeys>")
                .append(q.getOrDefault("max-keys", "1000")).append("</MaxKeys><IsTruncated>false</IsTruncated>");
        for (var e : objects.entrySet()) {
            Path f = e.getValue();
            x.append("<Contents><Key>").append(xml(e.getKey())).append("</Key><LastModified>")
                    .append(ISO.format(Files.getLastModifiedTime(f).toInstant())).append("</LastModified><ETag>")
                    .append(xml(etag(f))).append("</ETag><Size>").append(Files.size(f))
                    .append("</Size><StorageClass>STANDARD</StorageClass></Contents>");
        }
        for (String p : prefixes) {
            x.append("<CommonPrefixes><Prefix>").append(xml(p)).append("</Prefix></CommonPrefixes>");
        }
        x.append("</ListBucketResult>");
        send(ex, 200, x.toString());
    }

    private static void error(HttpExchange ex, int status, String code, String message) throws IOException {
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(status, -1);
            return;
        }
        send(ex, status, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>"
                + xml(message) + "</Message><RequestId>0</RequestId></Error>");
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/xml");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    /** A quoted entity tag from the file's size and modification time (changes when the file does). */
    private static String etag(Path f) throws IOException {
        return String.format("\"%016x%016x\"", Files.size(f), Files.getLastModifiedTime(f).toMillis());
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                int eq = kv.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
                q.put(k, eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return q;
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    @Override
    public void close() {
        http.stop(0);
        ((java.util.concurrent.ExecutorService) http.getExecutor()).shutdownNow();
    }
}
