package org.dsmscope.progs;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/** Test program: file writes and reads through FileOutputStream/FileInputStream, RandomAccessFile, FileChannel, Files. */
public final class FileProg {
    public static void main(String[] args) throws Exception {
        Path f = Paths.get(args[0]);
        byte[] data = new byte[100];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        try (FileOutputStream out = new FileOutputStream(f.toFile())) {
            out.write(data, 10, 40);
            out.write(7);
        }
        byte[] back = new byte[64];
        int got;
        try (FileInputStream in = new FileInputStream(f.toFile())) {
            got = in.read(back, 0, 64);
        }
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.write(data);
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            ch.read(ByteBuffer.allocate(30));
        }
        byte[] all = Files.readAllBytes(f);
        System.out.println("check " + got + " " + all.length);
    }
}
