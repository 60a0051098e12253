package io.jdm.common.jdbc;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Reads PEM text as OpenSSL, MySQL and DM write it: certificates, one private key in PKCS#8
 * ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC1 ({@code EC PRIVATE KEY}) form,
 * and an RSA public key ({@code PUBLIC KEY}, as MySQL's {@code public_key.pem}, or PKCS#1's
 * {@code RSA PUBLIC KEY}).
 * The JDK reads keys in PKCS#8 only, so the other two are wrapped into it. Other blocks (such as
 * the {@code EC PARAMETERS} that {@code openssl ecparam -genkey} writes first) are skipped, as Go's
 * TLS library skips them. Messages never quote the text.
 */
public final class Pem {
    private static final byte[] VERSION_0 = {0x02, 0x01, 0x00};
    /** AlgorithmIdentifier of rsaEncryption (1.2.840.113549.1.1.1) with its NULL parameters. */
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
            (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
    /** The OID of id-ecPublicKey (1.2.840.10045.2.1), followed in an AlgorithmIdentifier by the curve's OID. */
    private static final byte[] EC_PUBLIC_KEY = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};
    private static final int SEQUENCE = 0x30;
    private static final int OCTET_STRING = 0x04;
    private static final int BIT_STRING = 0x03;
    private static final int OID = 0x06;
    private static final int EC_PARAMETERS_TAG = 0xa0;
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "EdDSA", "RSASSA-PSS", "DSA");

    private Pem() {
    }

    /** Every certificate in the text, in order; at least one, or an exception that says what is missing. */
    public static List<X509Certificate> certificates(byte[] pem) {
        List<X509Certificate> out = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (Block b : blocks(pem)) {
                if (b.label().equals("CERTIFICATE")) {
                    out.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der())));
                }
            }
        } catch (CertificateException e) {
            throw new IllegalArgumentException("holds a CERTIFICATE block that is not an X.509 certificate");
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        return out;
    }

    /** The one private key in the text. */
    public static PrivateKey privateKey(byte[] pem) {
        List<Block> blocks = blocks(pem);
        byte[] ecParameters = null;
        for (Block b : blocks) {
            if (b.label().equals("EC PARAMETERS")) {
                ecParameters = b.der();
            }
        }
        for (Block b : blocks) {
            switch (b.label()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(b.der());
                }
                case "RSA PRIVATE KEY" -> {
                    return pkcs8(sequence(VERSION_0, RSA_ALGORITHM, tlv(OCTET_STRING, b.der())));
                }
                case "EC PRIVATE KEY" -> {
                    byte[] curve = curve(b.der(), ecParameters);
                    return pkcs8(sequence(VERSION_0, sequence(EC_PUBLIC_KEY, curve), tlv(OCTET_STRING, b.der())));
                }
                case "ENCRYPTED PRIVATE KEY" -> throw new IllegalArgumentException("holds an encrypted key; "
                        + "decrypt it first (openssl pkey -in KEY -out PLAIN.pem)");
                default -> {
                    // another block, such as EC PARAMETERS or a certificate kept in the same file
                }
            }
        }
        throw new IllegalArgumentException("holds no PEM private key (-----BEGIN PRIVATE KEY-----, "
                + "RSA PRIVATE KEY or EC PRIVATE KEY)");
    }

    /** The one RSA public key in the text, as MySQL's {@code Rsa_public_key} and key files hold it. */
    public static RSAPublicKey rsaPublicKey(byte[] pem) {
        for (Block b : blocks(pem)) {
            byte[] spki = switch (b.label()) {
                case "PUBLIC KEY" -> b.der();
                case "RSA PUBLIC KEY" -> sequence(RSA_ALGORITHM, tlv(BIT_STRING, concat(new byte[] {0}, b.der())));
                default -> null;
            };
            if (spki != null) {
                try {
                    return (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(spki));
                } catch (GeneralSecurityException | ClassCastException e) {
                    throw new IllegalArgumentException("holds a " + b.label() + " block that is not an RSA public key");
                }
            }
        }
        throw new IllegalArgumentException("holds no PEM public key (-----BEGIN PUBLIC KEY-----)");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static PrivateKey pkcs8(byte[] der) {
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException notThisOne) {
                // try the next algorithm
            }
        }
        throw new IllegalArgumentException("holds a private key the JVM cannot read (RSA, EC, EdDSA or DSA expected)");
    }

    /** The curve's OID: from the key's own parameters ([0]), else from an EC PARAMETERS block. */
    private static byte[] curve(byte[] sec1, byte[] ecParameters) {
        try {
            Tlv key = Tlv.read(sec1, 0);
            for (int at = key.start(); at < key.end(); ) {
                Tlv field = Tlv.read(sec1, at);
                if (field.tag() == EC_PARAMETERS_TAG) {
                    Tlv oid = Tlv.read(sec1, field.start());
                    return Arrays.copyOfRange(sec1, field.start(), oid.end());
                }
                at = field.end();
            }
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new IllegalArgumentException("holds an EC PRIVATE KEY block that is not DER");
        }
        if (ecParameters != null && ecParameters.length > 0 && (ecParameters[0] & 0xff) == OID) {
            return ecParameters;
        }
        throw new IllegalArgumentException("holds an EC PRIVATE KEY without its curve");
    }

    private record Block(String label, byte[] der) {
    }

    private static List<Block> blocks(byte[] pem) {
        String text = new String(pem, StandardCharsets.US_ASCII);
        List<Block> out = new ArrayList<>();
        int at = 0;
        while (true) {
            int begin = text.indexOf("-----BEGIN ", at);
            if (begin < 0) {
                return out;
            }
            int labelEnd = text.indexOf("-----", begin + 11);
            if (labelEnd < 0) {
                return out;
            }
            String label = text.substring(begin + 11, labelEnd);
            String end = "-----END " + label + "-----";
            int endAt = text.indexOf(end, labelEnd);
            if (endAt < 0) {
                throw new IllegalArgumentException("has a " + label + " block without its END line");
            }
            try {
                out.add(new Block(label, Base64.getMimeDecoder().decode(text.substring(labelEnd + 5, endAt))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("has a " + label + " block that is not base64");
            }
            at = endAt + end.length();
        }
    }

    /** One DER element: its tag and where its content lies in the array. */
    private record Tlv(int tag, int start, int end) {
        static Tlv read(byte[] der, int at) {
            int tag = der[at] & 0xff;
            int length = der[at + 1] & 0xff;
            int start = at + 2;
            if (length == 0x80 || length > 0x84) {
                throw new IllegalArgumentException("not DER");
            }
            if (length > 0x80) {
                int bytes = length & 0x7f;
                length = 0;
                for (int i = 0; i < bytes; i++) {
                    length = length << 8 | der[start++] & 0xff;
                }
            }
            if (length < 0 || start + length > der.length) {
                throw new IllegalArgumentException("not DER");
            }
            return new Tlv(tag, start, start + length);
        }
    }

    private static byte[] sequence(byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            content.writeBytes(p);
        }
        return tlv(SEQUENCE, content.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(n >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }
}
