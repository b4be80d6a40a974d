// Reads RFC 3339 timestamps, one a line, with java.time.Instant.parse (what Jackson's Instant
// deserializer uses) and prints "epochSecond nano" for each, or "error <message>".
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

public class InstantParse {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    StringBuilder out = new StringBuilder();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      try {
        Instant instant = Instant.parse(line);
        out.append(instant.getEpochSecond()).append(' ').append(instant.getNano()).append('\n');
      } catch (Exception e) {
        out.append("error ").append(e.getMessage().replace('\n', ' ')).append('\n');
      }
    }
    System.out.print(out);
  }
}
